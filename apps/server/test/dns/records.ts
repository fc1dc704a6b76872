/** One record of each of the nine types, as a customer would type them. */
export const ONE_OF_EACH: Record<string, string | number>[] = [
  { type: 'A', zona: 'www2', value: '203.0.113.10', ttl: 600 },
  { type: 'AAAA', zona: 'www2', value: '2001:DB8:0:0::10', ttl: 1800 },
  { type: 'ANAME', zona: 'edge', value: 'cdn.example.net' },
  { type: 'CAA', zona: '', value: '0 issue "letsencrypt.org"' },
  { type: 'CNAME', zona: 'blog', value: 'blogs.example.org.', ttl: 86400 },
  { type: 'MX', zona: 'correo', value: 'mx.example.net', priority: 5 },
  { type: 'NS', zona: 'delegada', value: 'ns.example.org' },
  { type: 'SRV', zona: '_sip._tcp', value: '5 5060 sip.example.net', priority: 10 },
  { type: 'TXT', zona: '_dmarc', value: `v=DMARC1; "quoted" \\ back ñ ${'x'.repeat(300)}` },
];
