import { LinkGone } from "@/components/auth/password-link-page";

export default function NotFound() {
  return <LinkGone kind="reset" state="unknown" />;
}
