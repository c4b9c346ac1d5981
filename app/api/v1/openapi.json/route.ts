import { methodsNotAllowed, publicRoute } from '@/lib/api/api-route';
import { openApiDocumentContract } from '@/lib/api/contracts/documentation';
import checkedIn from '@/openapi.json';
import { readSettings } from '@/lib/config';

interface Server {
  url: string;
  variables?: Record<string, { default: string }>;
}

const document = checkedIn as unknown as { servers: Server[]; paths: Record<string, { servers?: Server[] }> };

/** The checked-in OpenAPI document, unauthenticated (it is documentation), with this deployment's APP_URL as the servers' default. */
export const GET = publicRoute(openApiDocumentContract, () => {
  const appUrl = readSettings().appUrl;
  const withOrigin = (servers: Server[]) =>
    servers.map((s) => (s.variables?.app_url ? { ...s, variables: { ...s.variables, app_url: { ...s.variables.app_url, default: appUrl } } } : s));
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [path, item.servers ? { ...item, servers: withOrigin(item.servers) } : item]),
  );
  return Response.json({ ...checkedIn, servers: withOrigin(document.servers), paths }, { headers: { 'cache-control': 'public, max-age=300' } });
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
