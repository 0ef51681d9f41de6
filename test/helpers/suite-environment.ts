/**
 * The environment every test suite runs in (vitest.config.ts, playwright.config.ts). Every sign-in a test
 * makes would spend about a second in scrypt at the product's cost (N=2^17); the suites hash at 2^12
 * (server/src/auth/passwords.ts), and test/server/auth.test.ts checks the default with the variable unset.
 */
export const SUITE_ENVIRONMENT = { TRACKER_PASSWORD_COST: '12' };
