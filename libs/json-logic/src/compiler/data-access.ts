/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return --
   JSON-Logic is dynamically typed: its operators are JavaScript's own operators and coercions applied to any
   JSON value (exactly as the reference json-logic-js does), so values are `any` here by design. */

/** A compiled node: evaluates against the data. */
export type Evaluator = (data: any) => any;

export function inOperation(a: any, b: any): boolean {
  if (!b || typeof b.indexOf === 'undefined') return false;
  return b.indexOf(a) !== -1;
}

export function substr(source: any, start: any, end: any): string {
  if (end < 0) {
    // Negative length counts from the end (PHP behaviour, as in the reference).
    const temp = String(source).substr(start);
    return temp.substr(0, temp.length + end);
  }
  return String(source).substr(start, end);
}

export function lookup(data: any, a: any, b: any): any {
  const notFound = b === undefined ? null : b;
  if (typeof a === 'undefined' || a === '' || a === null) return data;
  const props = String(a).split('.');
  for (let i = 0; i < props.length; i++) {
    if (data === null || data === undefined) return notFound;
    data = data[props[i]];
    if (data === undefined) return notFound;
  }
  return data;
}

export const isPrimitive = (v: unknown) => v === null || typeof v !== 'object';

/** `{"missing": ["a", "b.c"]}` (or one list of names) with literal names: each path is split once. */
export function compileConstantMissing(values: unknown[]): Evaluator | undefined {
  const keys = values.length === 1 && Array.isArray(values[0]) ? (values[0] as unknown[]) : values;
  if (!keys.every((k) => typeof k === 'string' && k !== '')) return undefined;
  const lookups = (keys as string[]).map((key) => ({ key, find: compileConstantVar([key])! }));
  return (d) => {
    const out: string[] = [];
    for (const { key, find } of lookups) {
      const value = find(d);
      if (value === null || value === '') out.push(key);
    }
    return out;
  };
}

/** `{"var": "a.b"}` / `{"var": ["a.b", default]}` with literal arguments: the path is split once. */
export function compileConstantVar(values: unknown[]): Evaluator | undefined {
  if (values.length > 2 || !values.every(isPrimitive)) return undefined;
  const [a, b] = values as any[];
  if (typeof a === 'undefined' || a === '' || a === null) return (d) => d;
  const notFound = b === undefined ? null : b;
  const props = String(a).split('.');
  if (props.length === 1) {
    const key = props[0];
    return (d) => {
      if (d === null || d === undefined) return notFound;
      const v = d[key];
      return v === undefined ? notFound : v;
    };
  }
  return (d) => {
    let data = d;
    for (let i = 0; i < props.length; i++) {
      if (data === null || data === undefined) return notFound;
      data = data[props[i]];
      if (data === undefined) return notFound;
    }
    return data;
  };
}
