/** `npm run serve:api`: both GraphQL backends alone on one node:http server, for a separate deployment. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACCOUNT_GRAPHQL_ENDPOINT, createAccountYoga } from './account/yoga.ts';
import { getApiServices } from './services.ts';
import { createTenantYoga, TENANT_GRAPHQL_ENDPOINT } from './tenant/yoga.ts';

const services = await getApiServices();
const { config, logger, database } = services;
const account = createAccountYoga(services);
const tenant = createTenantYoga(services);

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  if (path === ACCOUNT_GRAPHQL_ENDPOINT) return account.requestListener(req, res);
  if (path === TENANT_GRAPHQL_ENDPOINT) return tenant.requestListener(req, res);
  res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
});

await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
const { port } = server.address() as AddressInfo;
const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
logger.info(
  `backends on http://${host}:${port}${ACCOUNT_GRAPHQL_ENDPOINT} and http://${host}:${port}${TENANT_GRAPHQL_ENDPOINT}`,
);

const shutdown = () => {
  server.close();
  server.closeAllConnections();
  database
    .close()
    .catch((err: unknown) => logger.error({ err }, 'closing the database failed'))
    .finally(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
