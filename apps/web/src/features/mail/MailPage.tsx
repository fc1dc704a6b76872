/** Placeholder until its issue lands: the shell mounts this page lazily. */
export default function MailPage() {
  return null;
}
