import {
  Button,
  Checkbox,
  Code,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useEffect, useId, useRef, useState } from 'react';

import { MessageKey } from '../../i18n/en';
import { useI18n } from '../../i18n/i18n';
import {
  ConditionNode,
  defaultValue,
  formatList,
  fromTree,
  GroupNode,
  jsonEqual,
  LogicNode,
  LogicVariable,
  newCondition,
  NodePath,
  OperatorId,
  operatorsFor,
  parseList,
  parseScalar,
  RawNode,
  toTree,
  updateAt,
  VariableType,
} from './logic-tree';

export type { LogicVariable } from './logic-tree';

export interface LogicEditorProps {
  /** The JSON-Logic rule (undefined: none yet). */
  value: unknown;
  /** Called with the new JSON-Logic after each change made in the drawing or in valid JSON. */
  onChange(value: unknown): void;
  /** The variables conditions can use, with their types (which decide the operators offered). */
  variables: LogicVariable[];
  'aria-label'?: string;
}

/** A literal as text in an input (null and absent: empty). */
const literalText = (v: unknown): string =>
  v === null || v === undefined
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : JSON.stringify(v);

const pretty = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

/**
 * A visual JSON-Logic editor: groups (all of / any of, negated, nested) of conditions (a variable,
 * an operator that fits its type, a value), with the JSON beside it, editable. Whatever the drawing
 * cannot show is kept as JSON in its place and written back untouched (logic-tree.ts).
 */
export function LogicEditor(props: LogicEditorProps) {
  const { value, variables } = props;
  const { t } = useI18n();
  const id = useId();
  const [tree, setTree] = useState<LogicNode>(() => toTree(value));
  const [text, setText] = useState(() => pretty(value));
  const [jsonError, setJsonError] = useState<string>();
  const emitted = useRef<unknown>(value);

  // A value changed from outside (not one this editor emitted): draw it again.
  useEffect(() => {
    if (jsonEqual(value, emitted.current)) return;
    emitted.current = value;
    setTree(toTree(value));
    setText(pretty(value));
    setJsonError(undefined);
  }, [value]);

  const commit = (next: LogicNode) => {
    const json = fromTree(next);
    emitted.current = json;
    setTree(next);
    setText(pretty(json));
    setJsonError(undefined);
    props.onChange(json);
  };

  const edit = (path: NodePath, replace: (node: LogicNode) => LogicNode | undefined) =>
    commit(updateAt(tree, path, replace));

  const onText = (next: string) => {
    setText(next);
    if (next.trim() === '') {
      emitted.current = undefined;
      setTree(toTree(undefined));
      setJsonError(undefined);
      props.onChange(undefined);
      return;
    }
    try {
      const parsed = JSON.parse(next) as unknown;
      emitted.current = parsed;
      setTree(toTree(parsed));
      setJsonError(undefined);
      props.onChange(parsed);
    } catch (err) {
      setJsonError(t('logic.jsonInvalid', { message: (err as Error).message }));
    }
  };

  const ctx: Ctx = { t, variables, edit, id };
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} role="group" aria-label={props['aria-label']} data-testid="logic-editor">
      <div>
        {tree.kind === 'group' ? (
          <GroupView node={tree} path={[]} ctx={ctx} />
        ) : (
          <Stack gap="xs">
            <NodeView node={tree} path={[]} ctx={ctx} />
            <Group>
              <Button
                size="xs"
                variant="light"
                onClick={() =>
                  commit({ kind: 'group', op: 'and', not: false, children: [tree, newCondition(variables[0])] })
                }
              >
                {t('logic.addCondition')}
              </Button>
            </Group>
          </Stack>
        )}
      </div>
      <Textarea
        id={`${id}-json`}
        label={t('logic.json')}
        value={text}
        onChange={(e) => onText(e.currentTarget.value)}
        error={jsonError}
        autosize
        minRows={8}
        maxRows={30}
        spellCheck={false}
        styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }}
        data-testid="logic-json"
      />
    </SimpleGrid>
  );
}

interface Ctx {
  t: (key: MessageKey, values?: Record<string, string | number>) => string;
  variables: LogicVariable[];
  edit: (path: NodePath, replace: (node: LogicNode) => LogicNode | undefined) => void;
  id: string;
}

const where = (path: NodePath) => (path.length ? path.map((i) => i + 1).join('.') : '0');

function NodeView({ node, path, ctx }: { node: LogicNode; path: NodePath; ctx: Ctx }) {
  if (node.kind === 'group') return <GroupView node={node} path={path} ctx={ctx} />;
  if (node.kind === 'condition') return <ConditionView node={node} path={path} ctx={ctx} />;
  return <RawView node={node} path={path} ctx={ctx} />;
}

function GroupView({ node, path, ctx }: { node: GroupNode; path: NodePath; ctx: Ctx }) {
  const { t, edit, variables, id } = ctx;
  const root = path.length === 0;
  const add = (child: LogicNode) =>
    edit(path, (n) => ({ ...(n as GroupNode), children: [...(n as GroupNode).children, child] }));
  return (
    <Paper
      withBorder
      p="sm"
      role="group"
      aria-label={root ? t('logic.rootGroup') : t('logic.group', { n: where(path) })}
      data-testid={`logic-group-${where(path)}`}
      bg={path.length % 2 ? 'gray.0' : undefined}
    >
      <Stack gap="xs">
        <Group gap="sm" align="end">
          <NativeSelect
            id={`${id}-op-${where(path)}`}
            label={t('logic.match')}
            size="xs"
            value={node.op}
            data={[
              { value: 'and', label: t('logic.and') },
              { value: 'or', label: t('logic.or') },
            ]}
            onChange={(e) => edit(path, (n) => ({ ...(n as GroupNode), op: e.currentTarget.value as 'and' | 'or' }))}
          />
          <Checkbox
            id={`${id}-not-${where(path)}`}
            size="xs"
            mb={6}
            label={t('logic.not')}
            checked={node.not}
            onChange={(e) => {
              const not = e.currentTarget.checked;
              edit(path, (n) => ({ ...(n as GroupNode), not }));
            }}
          />
        </Group>
        {node.children.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('logic.empty')}
          </Text>
        )}
        {node.children.map((child, i) => (
          <NodeView key={i} node={child} path={[...path, i]} ctx={ctx} />
        ))}
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={() => add(newCondition(variables[0]))}>
            {t('logic.addCondition')}
          </Button>
          <Button
            size="xs"
            variant="light"
            onClick={() => add({ kind: 'group', op: 'or', not: false, children: [newCondition(variables[0])] })}
          >
            {t('logic.addGroup')}
          </Button>
          {!root && (
            <Button size="xs" variant="subtle" color="red" onClick={() => edit(path, () => undefined)}>
              {t('logic.removeGroup')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

const OPERATOR_LABEL: Record<OperatorId, MessageKey> = {
  '==': 'logic.op.eq',
  '!=': 'logic.op.ne',
  '===': 'logic.op.seq',
  '!==': 'logic.op.sne',
  '<': 'logic.op.lt',
  '<=': 'logic.op.le',
  '>': 'logic.op.gt',
  '>=': 'logic.op.ge',
  between: 'logic.op.between',
  in: 'logic.op.in',
  contains: 'logic.op.contains',
  set: 'logic.op.set',
  unset: 'logic.op.unset',
};

function ConditionView({ node, path, ctx }: { node: ConditionNode; path: NodePath; ctx: Ctx }) {
  const { t, edit, variables, id } = ctx;
  const variable = variables.find((v) => v.name === node.variable);
  const type = variable?.type;
  const n = where(path);
  const set = (patch: Partial<ConditionNode>) => edit(path, (cur) => ({ ...(cur as ConditionNode), ...patch }));
  const operators = operatorsFor(type);
  if (!operators.includes(node.operator)) operators.push(node.operator);
  const variableOptions = variables.map((v) => ({ value: v.name, label: v.label ? `${v.label} (${v.name})` : v.name }));
  if (!variable)
    variableOptions.unshift({ value: node.variable, label: t('logic.unknownVariable', { name: node.variable }) });
  return (
    <Group
      gap="xs"
      align="start"
      wrap="wrap"
      role="group"
      aria-label={t('logic.condition', { n })}
      data-testid={`logic-condition-${n}`}
    >
      <NativeSelect
        id={`${id}-var-${n}`}
        aria-label={t('logic.variable')}
        size="xs"
        value={node.variable}
        data={variableOptions}
        onChange={(e) => {
          const next = variables.find((v) => v.name === e.currentTarget.value);
          const ops = operatorsFor(next?.type);
          const operator = ops.includes(node.operator) ? node.operator : ops[0];
          set({ variable: e.currentTarget.value, operator, value: defaultValue(next?.type, operator, node.value) });
        }}
        data-testid="logic-variable"
      />
      <NativeSelect
        id={`${id}-operator-${n}`}
        aria-label={t('logic.operator')}
        size="xs"
        value={node.operator}
        data={operators.map((op) => ({ value: op, label: t(OPERATOR_LABEL[op]) }))}
        onChange={(e) => {
          const operator = e.currentTarget.value as OperatorId;
          set({ operator, value: defaultValue(type, operator, node.value) });
        }}
        data-testid="logic-operator"
      />
      <ValueInput node={node} variable={variable} type={type} set={(value) => set({ value })} ctx={ctx} n={n} />
      <Button
        size="xs"
        variant="subtle"
        color="red"
        onClick={() => edit(path, () => undefined)}
        aria-label={t('logic.removeCondition', { n })}
      >
        {t('logic.remove')}
      </Button>
    </Group>
  );
}

function ValueInput({
  node,
  variable,
  type,
  set,
  ctx,
  n,
}: {
  node: ConditionNode;
  variable?: LogicVariable;
  type?: VariableType;
  set: (value: unknown) => void;
  ctx: Ctx;
  n: string;
}) {
  const { t, id } = ctx;
  const inputId = `${id}-value-${n}`;
  switch (node.operator) {
    case 'set':
    case 'unset':
      return null;
    case 'between': {
      const [low, high] = Array.isArray(node.value) ? (node.value as unknown[]) : [null, null];
      return (
        <>
          <ScalarText
            id={`${inputId}-low`}
            label={t('logic.low')}
            type={type}
            value={low}
            onValue={(v) => set([v, high])}
            t={t}
          />
          <ScalarText
            id={`${inputId}-high`}
            label={t('logic.high')}
            type={type}
            value={high}
            onValue={(v) => set([low, v])}
            t={t}
          />
        </>
      );
    }
    case 'in':
      return (
        <SyncedText
          id={inputId}
          label={t('logic.valueList')}
          placeholder={variable?.options?.slice(0, 3).join(', ') || 'a, b'}
          value={node.value}
          format={formatList}
          parse={(text) => parseList(type, text)}
          onValue={set}
        />
      );
    default:
      if (type === 'boolean' || typeof node.value === 'boolean')
        return (
          <NativeSelect
            id={inputId}
            aria-label={t('logic.value')}
            size="xs"
            value={String(node.value)}
            data={[
              { value: 'true', label: t('logic.true') },
              { value: 'false', label: t('logic.false') },
            ]}
            onChange={(e) => set(e.currentTarget.value === 'true')}
            data-testid="logic-value"
          />
        );
      if (variable?.options?.length && node.operator !== 'contains') {
        const current = literalText(node.value);
        const options = variable.options.includes(current) ? variable.options : [current, ...variable.options];
        return (
          <NativeSelect
            id={inputId}
            aria-label={t('logic.value')}
            size="xs"
            value={current}
            data={options}
            onChange={(e) => set(e.currentTarget.value)}
            data-testid="logic-value"
          />
        );
      }
      return <ScalarText id={inputId} label={t('logic.value')} type={type} value={node.value} onValue={set} t={t} />;
  }
}

function ScalarText({
  id,
  label,
  type,
  value,
  onValue,
  t,
}: {
  id: string;
  label: string;
  type?: VariableType;
  value: unknown;
  onValue: (value: unknown) => void;
  t: Ctx['t'];
}) {
  return (
    <SyncedText
      id={id}
      label={label}
      placeholder={type === 'date' ? '2026-01-31' : type === 'number' ? '0.5' : undefined}
      value={value}
      format={literalText}
      parse={(text) => parseScalar(type, text)}
      onValue={onValue}
      error={(v) => (type === 'number' && typeof v === 'string' && v !== '' ? t('logic.notNumber') : undefined)}
    />
  );
}

/** A text input over a typed value that keeps what is being typed ("0.", "CO, ") while the value follows it. */
function SyncedText(props: {
  id: string;
  label: string;
  placeholder?: string;
  value: unknown;
  format: (value: unknown) => string;
  parse: (text: string) => unknown;
  onValue: (value: unknown) => void;
  error?: (value: unknown) => string | undefined;
}) {
  const { value, format, parse, onValue } = props;
  const [text, setText] = useState(() => format(value));
  const last = useRef<unknown>(value);
  useEffect(() => {
    if (jsonEqual(value, last.current)) return;
    last.current = value;
    setText(format(value));
  }, [value, format]);
  return (
    <TextInput
      id={props.id}
      aria-label={props.label}
      size="xs"
      placeholder={props.placeholder}
      value={text}
      error={props.error?.(value)}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        const parsed = parse(next);
        last.current = parsed;
        onValue(parsed);
      }}
      data-testid="logic-value"
    />
  );
}

function RawView({ node, path, ctx }: { node: RawNode; path: NodePath; ctx: Ctx }) {
  const { t, edit } = ctx;
  const n = where(path);
  return (
    <Paper withBorder p="xs" role="group" aria-label={t('logic.raw', { n })} data-testid={`logic-raw-${n}`}>
      <Text size="xs" c="dimmed">
        {t('logic.rawHint')}
      </Text>
      <Code block>{JSON.stringify(node.json)}</Code>
      {path.length > 0 && (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          mt={4}
          onClick={() => edit(path, () => undefined)}
          aria-label={t('logic.removeCondition', { n })}
        >
          {t('logic.remove')}
        </Button>
      )}
    </Paper>
  );
}
