// Stands in for CommonJS functions a Lambda bundle holds but never calls (see BUNDLE_ALIASES in
// infra/function.ts): openskill's ESM build imports @stdlib's erf and normal quantile at its top
// for predictWin and predictDraw, which we never call (functions/api/community/ratings.ts calls
// rate, ordinal and rating: the Plackett-Luce update needs neither). esbuild drops the unused
// predictions but keeps the CommonJS modules they import (30 KB of @stdlib per bundle). If a
// caller ever reaches one, it fails loudly instead of computing something else.
module.exports = function unreachedFunction() {
  throw new Error('this function is not in the Lambda bundles (infra/bundle-stubs/unreached-function.cjs)');
};
