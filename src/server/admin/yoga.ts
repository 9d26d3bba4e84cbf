/** The operator console's backend at /api/admin/graphql (its own issuer, audience and key). */
import { JSONScalar } from '../graphql/json-scalar.ts';
import { type BackendYoga, createBackendYoga, type FetchClasses } from '../graphql/yoga.ts';
import type { ApiServices } from '../services.ts';
import { auditFacets, auditLog } from './resolvers/auditLog.ts';
import { operatorLogin, operatorSecondFactor, refreshToken, revokeToken } from './resolvers/auth.ts';
// Tenancies, invitations, the data-quality queue and API keys (the "tenancies" part of issue 21).
import * as operations from './resolvers/operations.ts';
import {
  createOperator,
  deactivateOperator,
  operatorMe,
  operators,
  setOperatorAccess,
} from './resolvers/operators.ts';
import { portfolio } from './resolvers/portfolio.ts';
import { properties, property } from './resolvers/properties.ts';
import * as propertyConsole from './resolvers/propertyConsole.ts';
// Prices, fixed charges and CO₂ factors; report texts; statements (the "settings" part of issue 21).
import * as settings from './resolvers/settings.ts';
import * as support from './resolvers/support.ts';
import * as tenancyCalls from './resolvers/tenancies.ts';
import { type Resolvers, typeDefs } from './types.generated.ts';

/** Where the admin backend is mounted. */
export const ADMIN_GRAPHQL_ENDPOINT = '/api/admin/graphql';

const resolvers: Resolvers = {
  JSON: JSONScalar,
  Query: {
    operatorMe,
    operators,
    properties,
    property,
    auditLog,
    auditFacets,
    // Tenancies, invitations, data quality, API keys:
    tenancyApartments: tenancyCalls.tenancyApartments,
    tenancy: tenancyCalls.tenancy,
    moveOutGraceMonths: tenancyCalls.moveOutGraceMonths,
    invitations: operations.invitations,
    dataQualityQueue: operations.dataQualityQueue,
    apiKeys: operations.apiKeys,
    portfolio,
    supportSearch: support.supportSearch,
    // Prices, report texts, statements:
    propertyRates: settings.propertyRates,
    previewRatePeriod: settings.previewRatePeriod,
    previewRateCorrection: settings.previewRateCorrection,
    reportTexts: settings.reportTexts,
    statementCoverage: settings.statementCoverage,
    propertyDetail: propertyConsole.propertyDetail,
    adminMeter: propertyConsole.adminMeter,
  },
  Mutation: {
    operatorLogin,
    operatorSecondFactor,
    refreshToken,
    revokeToken,
    createOperator,
    setOperatorAccess,
    deactivateOperator,
    // Tenancies, invitations, data quality, API keys:
    moveOut: tenancyCalls.moveOut,
    moveIn: tenancyCalls.moveIn,
    setMoveOutGraceMonths: tenancyCalls.setMoveOutGraceMonths,
    inviteTenant: operations.inviteTenant,
    bulkInvite: operations.bulkInvite,
    resendInvitation: operations.resendInvitation,
    revokeInvitation: operations.revokeInvitation,
    giveRadioId: operations.giveRadioId,
    acceptDataIssue: operations.acceptDataIssue,
    rejectDataIssue: operations.rejectDataIssue,
    createApiKey: operations.createApiKey,
    revokeApiKey: operations.revokeApiKey,
    startImpersonation: support.startImpersonation,
    setTenantActive: support.setTenantActive,
    // Prices, report texts, statements:
    addRatePeriod: settings.addRatePeriod,
    correctRate: settings.correctRate,
    updateReportTexts: settings.updateReportTexts,
    uploadStatements: settings.uploadStatements,
    importPropertyFile: propertyConsole.importPropertyFile,
    updateApartment: propertyConsole.updateApartment,
    updateMeasurementPoint: propertyConsole.updateMeasurementPoint,
    updateMeterSettings: propertyConsole.updateMeterSettings,
    swapMeter: propertyConsole.swapMeter,
    createApartment: propertyConsole.createApartment,
    createMeasurementPoint: propertyConsole.createMeasurementPoint,
    createMeter: propertyConsole.createMeter,
  },
};

/** Creates the admin backend's Yoga server. */
export function createAdminYoga(services: ApiServices, fetchClasses: FetchClasses = 'native'): BackendYoga {
  return createBackendYoga({
    fetchClasses,
    backend: 'admin',
    services,
    typeDefs,
    resolvers,
    graphqlEndpoint: ADMIN_GRAPHQL_ENDPOINT,
  });
}
