// Jest's module runtime with V8's code cache kept across the test files of one jest process. Jest
// compiles every module again for each test file (a new module registry per file, and
// vm.compileFunction has no compilation cache), so each integration suite parsed Nest, TypeORM,
// kafkajs and the apps' sources anew. Here the first compile of a file's transformed source
// produces V8's code cache and later compiles of the same source (same path, same content hash)
// start from it. Modules still load and run afresh in every test file: only the parse is saved.
const { createHash } = require('node:crypto');
const { compileFunction } = require('node:vm');
const Runtime = require('jest-runtime').default;
const { version } = require('jest-runtime/package.json');

// The patch replaces jest-runtime's internal `executor.compile` (jest 30): another major version may
// name or shape it differently, so it is refused here rather than silently skipped or broken.
const PATCHED_VERSIONS = /^30\./;
if (!PATCHED_VERSIONS.test(version))
  throw new Error(
    `jest-runtime ${version}: tools/jest-code-cache-runtime.js patches jest-runtime 30's executor.compile; ` +
      'check it against this version (or remove `runtime` from jest.preset.js)',
  );

/** filename -> { hash of the transformed source, V8 code cache of it } */
const codeCache = new Map();

class CodeCacheRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    if (typeof executor?.compile !== 'function')
      throw new Error(
        `jest-runtime ${version} has no executor.compile: tools/jest-code-cache-runtime.js needs updating`,
      );
    const compile = executor.compile.bind(executor);
    executor.compile = (scriptSource, filename) => {
      const vmContext = executor.environment.getVmContext();
      // Jest's own path for a disposed environment and Node's core modules (jest-nodejs-core-*).
      if (vmContext == null || executor.resolution.isCoreModule(filename)) return compile(scriptSource, filename);
      const hash = createHash('sha1').update(scriptSource).digest('base64');
      const cached = codeCache.get(filename);
      const cachedData = cached?.hash === hash ? cached.data : undefined;
      let fn;
      try {
        fn = compileFunction(scriptSource, executor.injectedModuleParameters, {
          filename,
          ...(cachedData ? { cachedData } : { produceCachedData: true }),
          importModuleDynamically: async (specifier, _function, importAttributes, ...rest) =>
            executor.dynamicImport(specifier, filename, vmContext, importAttributes, rest[0]),
          parsingContext: vmContext,
        });
      } catch {
        // A syntax error (or an ES module): jest's compile reports or handles it as it always does.
        return compile(scriptSource, filename);
      }
      if (cachedData && fn.cachedDataRejected) codeCache.delete(filename);
      else if (!cachedData && fn.cachedData) codeCache.set(filename, { hash, data: fn.cachedData });
      return fn;
    };
  }
}

module.exports = CodeCacheRuntime;
