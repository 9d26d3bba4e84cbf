/**
 * `npm run serve:api`: both GraphQL backends and the health check alone, for a separate deployment: the same
 * server as `npm start` (headers, limits, compression) without the web app.
 */
import type { AddressInfo } from 'node:net';
import { ACCOUNT_GRAPHQL_ENDPOINT } from './account/yoga.ts';
import { advertiseOrigin } from './db/dataDirLock.ts';
import { createAppServer } from './http.ts';
import { sharePeopleSignal } from './ingest/people.ts';
import { checkNodeVersion } from './nodeVersion.ts';
import { getApiServices } from './services.ts';
import { TENANT_GRAPHQL_ENDPOINT } from './tenant/yoga.ts';

checkNodeVersion();
const services = await getApiServices();
const { config, logger, database } = services;
const server = createAppServer({ services });

await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
// On PostgreSQL, people using another app process slow this one's ingestion too (ingest/people.ts).
const stopSharing = await sharePeopleSignal(database, logger);
const { port } = server.address() as AddressInfo;
const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
advertiseOrigin(process.env.APP_URL ? config.APP_URL : `http://${host}:${port}`);
logger.info(
  `backends on http://${host}:${port}${ACCOUNT_GRAPHQL_ENDPOINT} and http://${host}:${port}${TENANT_GRAPHQL_ENDPOINT}`,
);

const shutdown = () => {
  server.close();
  server.closeAllConnections();
  stopSharing()
    .catch(() => {})
    .then(() => database.close())
    .catch((err: unknown) => logger.error({ err }, 'closing the database failed'))
    .finally(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
