/** Placeholder until its issue lands: mounted at /admin/:id/service/subdomain/. */
export default function SitesPage() {
  return null;
}
