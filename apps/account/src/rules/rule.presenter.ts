import { RuleEntity } from './rule.entity';
import { RuleVersionEntity } from './rule-version.entity';

export function presentRule(rule: RuleEntity) {
  return {
    rule_id: rule.id,
    name: rule.name,
    event_type: rule.eventType,
    condition: rule.condition,
    version: rule.version,
    created_by: rule.createdBy,
    updated_by: rule.updatedBy,
    creation_date: rule.createdAt.toISOString(),
    update_date: rule.updatedAt.toISOString(),
  };
}

export function presentRuleVersion(v: RuleVersionEntity) {
  return {
    rule_id: v.ruleId,
    version: v.version,
    name: v.name,
    event_type: v.eventType,
    condition: v.condition,
    created_by: v.createdBy,
    creation_date: v.createdAt.toISOString(),
  };
}

/** What the audit log keeps of a rule. */
export const ruleSnapshot = (rule: Pick<RuleEntity, 'name' | 'eventType' | 'condition' | 'version'>) => ({
  name: rule.name,
  event_type: rule.eventType,
  condition: rule.condition,
  version: rule.version,
});
