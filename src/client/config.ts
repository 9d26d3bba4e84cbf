/**
 * Build-time configuration (PUBLIC_* variables), parsed once with zod; anything unset is off.
 * The browser never runs the parser: configPlugin.ts parses at build time and inlines the result.
 */
import { type ClientConfig, parseClientConfig } from './configSchema.ts';

export * from './configSchema.ts';

/** The parsed configuration inlined by configPlugin.ts (browser builds only). */
declare const __CLIENT_CONFIG__: ClientConfig;

/** The app's configuration, read from the build's PUBLIC_* variables. */
export const config: ClientConfig = import.meta.env.SSR
  ? parseClientConfig(import.meta.env ?? {})
  : __CLIENT_CONFIG__;
