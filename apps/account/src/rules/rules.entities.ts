import { ActionEntity } from './actions/action.entity';
import { ActionEnvEntity } from './envs/action-env.entity';
import { ExecutionEntity } from './executions/execution.entity';
import { RuleEntity } from './rule.entity';
import { RuleVersionEntity } from './rule-version.entity';
import { SigningSecretEntity } from './signing/signing-secret.entity';

/** The rules engine's tables (migration 1763770400000-create-rules-engine). */
export const rulesEntities: Function[] = [
  RuleEntity,
  RuleVersionEntity,
  ActionEntity,
  ActionEnvEntity,
  ExecutionEntity,
  SigningSecretEntity,
];
