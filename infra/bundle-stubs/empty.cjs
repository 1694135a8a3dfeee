// Stands in for modules the Lambda bundles never run (see BUNDLE_ALIASES in infra/function.ts):
// @apollo/usage-reporting-protobuf is only reached by Apollo's usage-reporting and inline-trace
// plugins, which the app disables (functions/api/http/app.ts). 200+ KB less to load on a cold start.
module.exports = {};
