import "server-only";
import nodemailer from "nodemailer";
import { env } from "@/lib/platform/env";
import { log } from "@/lib/platform/observability/log";
import type { IssuedLink } from "./account-links";

/** What became of the email: sent to whom, the send's error, or nothing when SMTP_URL is unset. */
export type LinkDelivery = { emailedTo?: string; emailError?: string };

/**
 * Emails a one-time link to its person when SMTP_URL is set. The admin is shown the link either way, so a
 * failed send is said, not thrown. Bounded: a mail server that does not answer gives up within seconds.
 */
export async function emailLink(link: IssuedLink, person: { email: string; name: string }): Promise<LinkDelivery> {
  const { smtpUrl, from } = env().mail;
  if (!smtpUrl) return {};
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000 });
  const until = new Date(link.expiresAt).toUTCString();
  const invite = link.kind === "invite";
  const subject = invite ? "You are invited to Invoice Console" : "Choose a new password for Invoice Console";
  const lead = invite
    ? `Hello ${person.name}, an admin added you to Invoice Console. Open this link to choose your password:`
    : `Hello ${person.name}, an admin issued a link for you to choose a new password for Invoice Console:`;
  const tail = `It works once, until ${until}. If you did not expect this email, ignore it.`;
  try {
    await transport.sendMail({
      from,
      to: person.email,
      subject,
      text: `${lead}\n\n${link.url}\n\n${tail}\n`,
      html: `<p>${escapeHtml(lead)}</p><p><a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a></p><p>${escapeHtml(tail)}</p>`,
    });
    return { emailedTo: person.email };
  } catch (error) {
    // The link holds the token: the log line names the person and the error, never the link.
    log.warn({ err: error, to: person.email, kind: link.kind }, "could not email a one-time link");
    return { emailError: error instanceof Error ? error.message : String(error) };
  } finally {
    transport.close();
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
