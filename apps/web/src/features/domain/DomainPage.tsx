/** Placeholder until its issue lands: the shell mounts this page lazily. */
export default function DomainPage() {
  return null;
}
