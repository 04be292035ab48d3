import { PassUserEntity } from './pass-user.entity';
import { userClaims } from './user-claims';

const now = new Date('2026-01-15T00:00:00Z');
const user = (over: Partial<PassUserEntity> = {}): PassUserEntity =>
  Object.assign(new PassUserEntity(), {
    id: '5f1d7a3e-0000-4000-8000-000000000001',
    email: 'ana@example.com',
    phoneNumber: '+573001234567',
    phoneVerified: true,
    identity: {
      verified: true,
      verification_level: 'high',
      first_name: 'Ana',
      last_name: 'Gómez',
      birthdate: '2010-06-01',
      nationality: 'CO',
      document_number: '123',
      document_type: 'national-id',
      expiration_date: '2025-01-01',
    },
    documents: [
      { country: 'co', document_type: 'national-id', document_number: '123' },
      { country: 'us', document_type: 'passport', document_number: 'P9' },
    ],
    background: {},
    biometric: {},
    address: null,
    createdAt: now,
    updatedAt: now,
    ...over,
  });

describe('userClaims', () => {
  it('always carries sub and only the claims of the granted scopes', () => {
    expect(userClaims(user(), ['openid'], now)).toEqual({ sub: user().id });
    expect(userClaims(user(), ['email'], now)).toEqual({
      sub: user().id,
      email: 'ana@example.com',
      email_verified: true,
    });
  });

  it('adds document_expired and expiration_date to identity when the primary document is expired', () => {
    const claims = userClaims(user(), ['identity'], now);
    expect(claims).toMatchObject({
      identity_verified: true,
      given_name: 'Ana',
      document_expired: true,
      expiration_date: '2025-01-01',
    });
  });

  it('filters documents by country and type', () => {
    expect(userClaims(user(), ['document:us:ALL'], now).documents).toEqual([user().documents[1]]);
    expect((userClaims(user(), ['documents'], now).documents as unknown[]).length).toBe(2);
  });

  it('derives is_minor and age_range from the birthdate', () => {
    expect(userClaims(user(), ['age'], now)).toMatchObject({
      age_verified: true,
      is_minor: true,
      age_range: 'under_18',
    });
  });

  it('omits empty claims', () => {
    const claims = userClaims(user({ address: null }), ['address', 'biometric'], now);
    expect(claims).not.toHaveProperty('address');
    expect(claims).toEqual({ sub: user().id, face_enrolled: false });
  });
});
