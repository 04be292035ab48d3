import { domainException } from '@kyc/platform';

export enum AgentErrorCode {
  UnknownUser = 'unknown_user',
  UserDisabled = 'user_disabled',
  RulesetNotFound = 'ruleset_not_found',
  TemplateNotFound = 'agent_template_not_found',
  TemplateExists = 'agent_template_exists',
  NotOwnAgent = 'not_own_agent',
}

const STATUS: Record<AgentErrorCode, number> = {
  [AgentErrorCode.UnknownUser]: 404,
  [AgentErrorCode.UserDisabled]: 409,
  [AgentErrorCode.RulesetNotFound]: 404,
  [AgentErrorCode.TemplateNotFound]: 404,
  [AgentErrorCode.TemplateExists]: 409,
  [AgentErrorCode.NotOwnAgent]: 403,
};

export class AgentException extends domainException<AgentErrorCode>(STATUS) {}
