import { LinkGone } from "@/components/auth/password-link-page";

export default function NotFound() {
  return <LinkGone kind="invite" state="unknown" />;
}
