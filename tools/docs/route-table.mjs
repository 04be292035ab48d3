// The route table: every route of every app and who may call it (public, operator token, or an API
// key of the types the route states, with the permissions it needs), read from the controllers with
// the TypeScript compiler API. docs/security.md's generated tables and the key-type matrix test of
// every route (libs/testing/test/integration/route-matrix.integration-spec.ts) come from it.
// `node tools/docs/route-table.mjs` prints it as JSON.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

import { apps, parse, root, walkTs } from './reference.mjs';

const decoratorCalls = (node, source) =>
  (ts.getDecorators(node) ?? [])
    .map((d) => d.expression)
    .filter((e) => ts.isCallExpression(e))
    .map((e) => ({ name: e.expression.getText(source), args: e.arguments }));

/** String constants (`export const NAME = 'value'`) of an app, to resolve decorator arguments. */
function stringConstants(files) {
  const out = new Map();
  for (const file of files)
    for (const [, name, value] of readFileSync(path.join(root, file), 'utf8').matchAll(
      /export const (\w+)\s*=\s*'([^']*)'/g,
    ))
      out.set(name, value);
  return out;
}

/** The key-type decorators of libs/platform/src/auth/auth.decorators.ts and the types each lets in. */
const KEY_TYPE_DECORATORS = {
  BackendKeys: () => ['backend'],
  EndUserKeys: () => ['backend', 'web', 'sdk'],
  KeyTypes: (args) => args,
};

/** The routes of the controllers in `files`, for `service`. */
function routesOf(service, files, constants) {
  const arg = (a, source) => (ts.isStringLiteral(a) ? a.text : (constants.get(a.getText(source)) ?? a.getText(source)));
  const rows = [];
  for (const file of files.filter((f) => f.endsWith('.controller.ts'))) {
    const source = parse(file);
    for (const cls of source.statements.filter(ts.isClassDeclaration)) {
      const classDecorators = decoratorCalls(cls, source);
      const controller = classDecorators.find((d) => d.name === 'Controller');
      if (!controller) continue;
      const base = controller.args[0] ? arg(controller.args[0], source) : '';
      for (const member of cls.members.filter(ts.isMethodDeclaration)) {
        const decorators = decoratorCalls(member, source);
        const route = decorators.find((d) => ['Get', 'Post', 'Put', 'Patch', 'Delete'].includes(d.name));
        if (!route) continue;
        const routeArg = route.args[0];
        const subPaths = !routeArg
          ? ['']
          : ts.isArrayLiteralExpression(routeArg)
            ? routeArg.elements.map((e) => arg(e, source))
            : [arg(routeArg, source)];
        // Method decorators override the class's, as the guard reads them (getAllAndOverride).
        const all = [...classDecorators, ...decorators];
        const last = (names) => [...all].reverse().find((d) => names.includes(d.name));
        const permissions = last(['RequirePermissions']);
        const keyTypes = last(Object.keys(KEY_TYPE_DECORATORS));
        // The console's routes take no API key (@Public) but a console session (its SessionGuard).
        const session = all.some(
          (d) => d.name === 'UseGuards' && d.args.some((a) => a.getText(source) === 'SessionGuard'),
        );
        const access = all.some((d) => d.name === 'Public')
          ? session
            ? 'session'
            : 'public'
          : all.some((d) => d.name === 'PlatformAdmin')
            ? 'operator'
            : 'key';
        for (const sub of subPaths) {
          const full = `/${[base, sub].filter(Boolean).join('/')}`.replace(/\/+/g, '/').replace(/:(\w+)/g, '{$1}');
          rows.push({
            service,
            method: route.name.toUpperCase(),
            path: full,
            access,
            permissions: permissions ? permissions.args.map((a) => arg(a, source)) : [],
            // null: a keyed route that states no key types (the build refuses it).
            keyTypes:
              access !== 'key'
                ? []
                : keyTypes
                  ? KEY_TYPE_DECORATORS[keyTypes.name](keyTypes.args.map((a) => arg(a, source)))
                  : null,
            source: file,
          });
        }
      }
    }
  }
  return rows.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** Every route: the apps' (service = the app) and the platform's, served by every service (service = '*'). */
export function routeTable() {
  const contracts = walkTs('libs/contracts/src');
  const rows = [];
  for (const app of apps()) {
    const files = walkTs(`apps/${app}/src`);
    // Permission names are constants of the app or of libs/contracts (e.g. ENGAGEMENT_MANAGE).
    rows.push(...routesOf(app, files, stringConstants([...contracts, ...files])));
  }
  const platform = walkTs('libs/platform/src');
  rows.push(...routesOf('*', platform, stringConstants([...contracts, ...platform])));
  return rows;
}

/** Keyed routes that state no key types: the build fails on any (docs generation and its test). */
export function undecidedRoutes(table = routeTable()) {
  return table.filter((r) => r.keyTypes === null).map((r) => `${r.service} ${r.method} ${r.path} (${r.source})`);
}

function decidedTable() {
  const table = routeTable();
  const undecided = undecidedRoutes(table);
  if (undecided.length)
    throw new Error(
      `routes without a key-type decision (@BackendKeys, @EndUserKeys or @KeyTypes):\n  ${undecided.join('\n  ')}`,
    );
  return table;
}

const keysCell = (r) =>
  r.access === 'public' || r.access === 'session'
    ? ''
    : r.access === 'operator'
      ? 'operator token'
      : r.keyTypes.join(', ');
const whoCell = (r) =>
  r.access === 'public'
    ? 'public (no API key)'
    : r.access === 'session'
      ? 'a console session (cookie; CSRF token on changes)'
      : r.access === 'operator'
        ? 'platform operator token'
        : r.permissions.length
          ? r.permissions.map((p) => `\`${p}\``).join(' or ')
          : 'any valid API key';

/** docs/security.md's table of every route: the key types it takes and the permissions it needs. */
export function permissionsReference() {
  const lines = ['| service | method | path | key types | who may call it |', '|---|---|---|---|---|'];
  const table = decidedTable();
  for (const r of table.filter((r) => r.service !== '*'))
    lines.push(`| ${r.service} | ${r.method} | \`${r.path}\` | ${keysCell(r)} | ${whoCell(r)} |`);
  lines.push('', 'Every service also serves:', '');
  for (const r of table.filter((r) => r.service === '*'))
    lines.push(`- ${r.method} \`${r.path}\`: ${r.access === 'public' ? 'public' : `${keysCell(r)} keys`}`);
  return lines.join('\n').trimEnd();
}

/** docs/security.md's "Keys and what each may call": the routes open to temporary keys, by service. */
export function keyTypesReference() {
  const table = decidedTable();
  const keyed = table.filter((r) => r.access === 'key');
  const temporary = keyed.filter((r) => r.keyTypes.includes('web') || r.keyTypes.includes('sdk'));
  const lines = [
    `- **backend** keys: every one of the ${keyed.filter((r) => r.keyTypes.includes('backend')).length} keyed routes, within the permissions of the key's user (table below).`,
    `- **web** and **sdk** keys (temporary, bound to the digital-identity grant and one flow): only these ${temporary.length} routes, and there only the process the key created:`,
    '',
    '| service | method | path | key types |',
    '|---|---|---|---|',
    ...temporary.map(
      (r) =>
        `| ${r.service === '*' ? 'every service' : r.service} | ${r.method} | \`${r.path}\` | ${r.keyTypes.join(', ')} |`,
    ),
    '',
    `- **platform operator tokens**: only the ${table.filter((r) => r.access === 'operator').length} \`/v1/admin/…\` routes; anywhere else 401.`,
  ];
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  process.stdout.write(`${JSON.stringify(routeTable(), null, 1)}\n`);
