import { DOCUMENT_SCOPE } from '../scopes/scopes';
import { PassUserEntity } from './pass-user.entity';

type Claims = Record<string, unknown>;

const ageOn = (birthdate: string, now: Date): number => {
  const [y, m, d] = birthdate.split('-').map(Number);
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age--;
  return age;
};

const ageRange = (age: number) =>
  age < 18 ? 'under_18' : age < 25 ? '18-24' : age < 35 ? '25-34' : age < 50 ? '35-49' : age < 65 ? '50-64' : '65+';

const profileName = (u: PassUserEntity) =>
  [u.identity.first_name, u.identity.last_name].filter(Boolean).join(' ') || undefined;

/** Leaves out undefined, null, empty strings, empty arrays and empty objects ("empty claims omitted"). */
function compact(claims: Claims): Claims {
  const out: Claims = {};
  for (const [k, v] of Object.entries(claims)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out;
}

/**
 * The claims of a person for the granted (flat) scopes, exactly as spec 3's Scopes table; `sub` always.
 */
export function userClaims(user: PassUserEntity, scopes: readonly string[], now: Date): Claims {
  const id = user.identity;
  const has = (s: string) => scopes.includes(s);
  const claims: Claims = { sub: user.id };
  const identityVerified = id.verified === true;
  const expired = !!id.expiration_date && id.expiration_date < now.toISOString().slice(0, 10);

  if (has('email') || has('contact')) Object.assign(claims, { email: user.email, email_verified: true });
  if (has('phone') || has('contact'))
    Object.assign(claims, {
      phone_number: user.phoneNumber,
      phone_number_verified: user.phoneNumber ? user.phoneVerified : undefined,
    });
  if (has('contact')) claims.preferred_communication_method = user.phoneVerified ? 'phone' : 'email';
  if (has('profile'))
    Object.assign(claims, {
      name: profileName(user),
      first_name: id.first_name,
      last_name: id.last_name,
      gender: id.gender,
      birthdate: id.birthdate,
      nationality: id.nationality,
      updated_at: Math.floor(user.updatedAt.getTime() / 1000),
    });
  if (has('identity')) {
    Object.assign(claims, {
      identity_verified: identityVerified,
      verification_level: id.verification_level,
      given_name: id.first_name,
      family_name: id.last_name,
      birthdate: id.birthdate,
      nationality: id.nationality,
      document_number: id.document_number,
      document_type: id.document_type,
      issuing_authority: id.issuing_authority,
      is_risky: id.is_risky ?? false,
      was_manually_reviewed: id.was_manually_reviewed ?? false,
    });
    if (expired) Object.assign(claims, { document_expired: true, expiration_date: id.expiration_date });
  }
  const documentFilters = scopes.flatMap((s) => {
    if (s === 'documents') return [['ALL', 'ALL']];
    const m = DOCUMENT_SCOPE.exec(s);
    return m ? [[m[1], m[2]]] : [];
  });
  if (documentFilters.length)
    claims.documents = user.documents.filter((d) =>
      documentFilters.some(([c, t]) => (c === 'ALL' || c === d.country) && (t === 'ALL' || t === d.document_type)),
    );
  if (has('age')) {
    claims.age_verified = identityVerified && !!id.birthdate;
    if (id.birthdate) {
      const age = ageOn(id.birthdate, now);
      Object.assign(claims, { is_minor: age < 18, age_range: ageRange(age), birthdate: id.birthdate });
    }
  }
  if (has('address') && user.address) claims.address = compact({ ...user.address });
  if (has('background')) {
    const b = user.background;
    const done = b.status === 'completed';
    Object.assign(claims, {
      trust_level:
        done && b.score !== undefined ? (b.score >= 0.8 ? 'high' : b.score >= 0.5 ? 'medium' : 'low') : undefined,
      background_verified: done,
      verification_badges: done ? ['background_check'] : [],
      manual_verification_status: id.was_manually_reviewed ? 'reviewed' : 'not_required',
    });
  }
  if (has('biometric')) {
    const b = user.biometric;
    Object.assign(claims, {
      face_enrolled: b.face_enrolled ?? false,
      last_face_verification_date: b.last_face_verification_date,
      liveness_check_passed: b.liveness_check_passed,
      face_match_confidence: b.face_match_confidence,
      quality_level:
        b.face_match_confidence === undefined ? undefined : b.face_match_confidence >= 0.9 ? 'high' : 'standard',
      verification_method: b.face_enrolled ? 'face_match' : undefined,
    });
  }
  if (has('verification'))
    Object.assign(claims, {
      verification_status: identityVerified ? 'verified' : 'unverified',
      verification_date: id.verification_date,
      verification_methods: id.verification_methods,
    });
  if (has('nationality')) claims.nationality = id.nationality;
  return compact(claims);
}
