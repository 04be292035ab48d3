/**
 * oidc-provider is ESM-only and pass is compiled to CommonJS (tools/build.mjs, SWC), which rewrites
 * `import()` into `require()`. A Function-built import keeps a real dynamic import in the output, so the
 * package loads through Node's ESM loader as it is meant to.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const dynamicImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

export type OidcProviderModule = typeof import('oidc-provider');

export const loadOidcProvider = () => dynamicImport('oidc-provider') as Promise<OidcProviderModule>;
