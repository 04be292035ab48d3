import { domainException } from '@kyc/platform';

export enum RuleErrorCode {
  RuleNotFound = 'rule_not_found',
  RuleVersionNotFound = 'rule_version_not_found',
  ActionNotFound = 'action_not_found',
  EnvNotFound = 'env_not_found',
  ExecutionNotFound = 'execution_not_found',
  LimitReached = 'limit_reached',
  FinishedCheckNotFound = 'finished_check_not_found',
}

const STATUS: Record<RuleErrorCode, number> = {
  [RuleErrorCode.RuleNotFound]: 404,
  [RuleErrorCode.RuleVersionNotFound]: 404,
  [RuleErrorCode.ActionNotFound]: 404,
  [RuleErrorCode.EnvNotFound]: 404,
  [RuleErrorCode.ExecutionNotFound]: 404,
  [RuleErrorCode.LimitReached]: 400,
  [RuleErrorCode.FinishedCheckNotFound]: 404,
};

export class RuleException extends domainException<RuleErrorCode>(STATUS) {}

export const ruleNotFound = (id: string) => new RuleException(RuleErrorCode.RuleNotFound, `rule ${id} not found`);
export const actionNotFound = (id: string) => new RuleException(RuleErrorCode.ActionNotFound, `action ${id} not found`);
