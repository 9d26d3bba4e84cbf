/**
 * Typed translation keys: the English files are the resources type, so `t('x')` with a key missing from
 * locales/en is a type error (tests/unit/locales.test.ts keeps da and nb in step with en).
 */
import type account from '../../locales/en/account.json';
import type admin from '../../locales/en/admin.json';
import type adminOps from '../../locales/en/admin-ops.json';
import type adminProps from '../../locales/en/admin-props.json';
import type adminSettings from '../../locales/en/admin-settings.json';
import type alarms from '../../locales/en/alarms.json';
import type common from '../../locales/en/common.json';
import type consumption from '../../locales/en/consumption.json';
import type domain from '../../locales/en/domain.json';
import type reports from '../../locales/en/reports.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    // A default value does not excuse a missing key: open sets of codes go through orFallback (i18nKeys.ts).
    strictKeyChecks: true;
    resources: {
      common: typeof common;
      domain: typeof domain;
      alarms: typeof alarms;
      reports: typeof reports;
      consumption: typeof consumption;
      account: typeof account;
      admin: typeof admin;
      'admin-ops': typeof adminOps;
      'admin-settings': typeof adminSettings;
      'admin-props': typeof adminProps;
    };
  }
}
