// The generated permissions table of docs/security.md: every route of every app and who may call it, read
// from the controllers with the TypeScript compiler API (see reference.mjs for the other generated pages).
import { readFileSync } from 'node:fs';
import path from 'node:path';

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

/** Every route of every app and who may call it, from @Controller/@Get…, @RequirePermissions, @PlatformAdmin, @Public. */
export function permissionsReference() {
  const lines = ['| service | method | path | who may call it |', '|---|---|---|---|'];
  const platformRoutes = [
    ['GET', '/v1/auth/whoami', 'any valid API key'],
    ['GET', '/livez, /readyz, /health, /metrics, /docs', 'public'],
  ];
  for (const app of apps()) {
    const files = walkTs(`apps/${app}/src`);
    // Permission names are constants of the app or of libs/contracts (e.g. ENGAGEMENT_MANAGE).
    const constants = stringConstants([...walkTs('libs/contracts/src'), ...files]);
    const arg = (a, source) =>
      ts.isStringLiteral(a) ? a.text : (constants.get(a.getText(source)) ?? a.getText(source));
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
          const all = [...classDecorators, ...decorators];
          const permissions = [...all].reverse().find((d) => d.name === 'RequirePermissions');
          const who = all.some((d) => d.name === 'Public')
            ? 'public (no API key)'
            : all.some((d) => d.name === 'PlatformAdmin')
              ? 'platform operator token'
              : permissions
                ? permissions.args.map((a) => `\`${arg(a, source)}\``).join(' or ')
                : 'any valid API key';
          for (const sub of subPaths) {
            const full = `/${[base, sub].filter(Boolean).join('/')}`.replace(/\/+/g, '/').replace(/:(\w+)/g, '{$1}');
            rows.push([route.name.toUpperCase(), full, who]);
          }
        }
      }
    }
    rows.sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0]));
    for (const [method, route, who] of rows) lines.push(`| ${app} | ${method} | \`${route}\` | ${who} |`);
  }
  lines.push('');
  lines.push('Every service also serves:', '');
  for (const [method, route, who] of platformRoutes) lines.push(`- ${method} \`${route}\`: ${who}`);
  return lines.join('\n').trimEnd();
}
