import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage> & { __kycCached?: boolean };

/** The class-validator releases whose metadata storage this patch was written against (0.14.x). */
const PATCHED_VERSIONS = /^0\.14\./;
const PATCHED_METHODS = [
  'getTargetValidationMetadatas',
  'addValidationMetadata',
  'addConstraintMetadata',
  'groupByPropertyName',
] as const;

/**
 * Throws unless `storage` is the one this patch knows: a class-validator 0.14 storage with the
 * methods it replaces. The memo is right only while metadata changes through the two add methods;
 * another release may change that, so an upgrade stops at start-up until this file is reviewed.
 */
export function assertPatchableStorage(storage: object, version: string): void {
  const missing = PATCHED_METHODS.filter((m) => typeof (storage as Record<string, unknown>)[m] !== 'function');
  if (!PATCHED_VERSIONS.test(version) || missing.length)
    throw new Error(
      `class-validator ${version}${missing.length ? ` has no ${missing.join(', ')}` : ''}: the metadata cache ` +
        'was written for 0.14.x; review libs/platform/src/validation/metadata-cache.ts for this version',
    );
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the installed release, read once
const installedVersion = (require('class-validator/package.json') as { version: string }).version;

/**
 * class-validator recomputes a class's validation metadata on every validate call, scanning every
 * decorated class of the process for parents; on a hot endpoint that is a visible share of the
 * request. The result only changes when a decorator registers new metadata, so it is memoized
 * per (class, schema, options) and forgotten whenever metadata is added.
 */
export function cacheValidationMetadata(): void {
  const storage = getMetadataStorage() as Storage;
  if (storage.__kycCached) return;
  assertPatchableStorage(storage, installedVersion);
  storage.__kycCached = true;
  const compute = storage.getTargetValidationMetadatas.bind(storage);
  const addValidation = storage.addValidationMetadata.bind(storage);
  const addConstraint = storage.addConstraintMetadata.bind(storage);
  let cache = new Map<unknown, Map<string, ReturnType<typeof compute>>>();
  const emptyCache = () => new Map<unknown, Map<string, ReturnType<typeof compute>>>();
  storage.addValidationMetadata = (metadata) => {
    cache = emptyCache();
    addValidation(metadata);
  };
  storage.addConstraintMetadata = (metadata) => {
    cache = emptyCache();
    addConstraint(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    let byOptions = cache.get(target);
    if (!byOptions) cache.set(target, (byOptions = new Map<string, ReturnType<typeof compute>>()));
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let found = byOptions.get(key);
    if (!found) byOptions.set(key, (found = compute(target, schema, always, strictGroups, groups)));
    return found;
  };
  // Grouping the (now stable) metadata arrays by property is memoized on the array itself.
  const group = storage.groupByPropertyName.bind(storage);
  const grouped = new WeakMap<object, ReturnType<typeof group>>();
  storage.groupByPropertyName = (metadata) => {
    let found = grouped.get(metadata);
    if (!found) grouped.set(metadata, (found = group(metadata)));
    return found;
  };
}
