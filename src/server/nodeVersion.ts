/**
 * The Node.js major version the app runs on, checked at every start: `engines` in package.json is only advice
 * to npm (and `npm ci --omit=dev` drops the pinned `node` devDependency), so a server started with an older
 * `node` stops here with one clear line instead of failing later on a missing API.
 */
const REQUIRED_NODE_MAJOR = 24;

/** Exits the process with a message when Node is older than REQUIRED_NODE_MAJOR. */
export function checkNodeVersion(version: string = process.versions.node): void {
  const major = Number(version.split('.')[0]);
  if (major >= REQUIRED_NODE_MAJOR) return;
  console.error(
    `This app needs Node.js ${REQUIRED_NODE_MAJOR} or newer; this is ${version} (${process.execPath}). ` +
      'Install Node 24 (https://nodejs.org), or run it through npm, which uses the pinned one in development.',
  );
  process.exit(1);
}
