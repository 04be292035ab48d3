/** A list query parameter: `a,b` or repeated `x=a&x=b` → ['a', 'b'] (other values kept for the validators). */
export const toList = ({ value }: { value: unknown }): unknown[] | undefined =>
  value === undefined
    ? undefined
    : (Array.isArray(value) ? (value as unknown[]) : [value]).flatMap((v: unknown) =>
        typeof v === 'string' ? v.split(',').map((t) => t.trim()) : [v],
      );
