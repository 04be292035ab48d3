import type { CheckEntity } from '../engine/check.entity';
import { scoreChange, scoreChanges } from './continuous-check-runner';

const check = (score: number, idScore: number, homonymScore: number, datasets: Record<string, number>) =>
  ({
    score,
    idScore,
    homonymScore,
    result: { scores: Object.entries(datasets).map(([data_set, s]) => ({ data_set, score: s })) },
  }) as unknown as CheckEntity;

describe('continuous check score change', () => {
  it('compares the new score with the previous run', () => {
    expect(scoreChange(0.5, 0.75)).toBe('up');
    expect(scoreChange(0.75, 0.5)).toBe('down');
    expect(scoreChange(0.75, 0.75)).toBe('same');
    expect(scoreChange(0.1 + 0.2, 0.3)).toBe('same'); // floating point noise is not a change
    expect(scoreChange(-1, 0.4)).toBe('up'); // the previous run had no result
  });

  it('lists every score that moved (global, id, name, per dataset)', () => {
    const before = check(0.5, 0.5, 1, { criminal_record: 0.2, legal_background: 1 });
    const after = check(0.8, 0.5, 1, { criminal_record: 1, legal_background: 1, traffic_fines: 0.6 });
    expect(scoreChanges(before, after)).toEqual([
      { name: 'score', old_score: 0.5, new_score: 0.8 },
      { name: 'criminal_record', old_score: 0.2, new_score: 1 },
      { name: 'traffic_fines', old_score: -1, new_score: 0.6 },
    ]);
    expect(scoreChanges(after, after)).toEqual([]);
  });
});
