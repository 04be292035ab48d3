import { Textarea } from '@mantine/core';
import { type JSX, useEffect, useState } from 'react';

import { useI18n } from '../../i18n/i18n';

export interface LogicVariable {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'date' | 'array';
  label?: string;
  options?: string[];
}

/**
 * Placeholder of the visual JSON-Logic editor (replaced by the real one at merge): the rule as
 * JSON text; valid JSON is passed to onChange, invalid JSON is said in words under the field.
 */
export function LogicEditor(props: {
  value: unknown;
  onChange(value: unknown): void;
  variables: LogicVariable[];
  'aria-label'?: string;
}): JSX.Element {
  const { t } = useI18n();
  const [text, setText] = useState(() => JSON.stringify(props.value ?? null, null, 2));
  const [error, setError] = useState<string>();
  useEffect(() => {
    let same = false;
    try {
      same = JSON.stringify(JSON.parse(text)) === JSON.stringify(props.value ?? null);
    } catch {
      same = false;
    }
    if (!same && !error) setText(JSON.stringify(props.value ?? null, null, 2));
  }, [props.value]);
  return (
    <Textarea
      label={props['aria-label'] ?? t('logic.rule')}
      description={t('logic.variables', { names: props.variables.map((v) => v.name).join(', ') })}
      autosize
      minRows={6}
      styles={{ input: { fontFamily: 'monospace' } }}
      value={text}
      error={error}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        try {
          const parsed: unknown = JSON.parse(next);
          setError(undefined);
          props.onChange(parsed);
        } catch (err) {
          setError(t('logic.invalidJson', { reason: (err as Error).message }));
        }
      }}
    />
  );
}
