// Kept equal to package.json's version by test/logx/exports.test.ts.
export const version = '0.1.0'
