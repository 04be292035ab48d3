// The engines behind the validators: what the validations service asks of a document reader and of a face
// model. Implementations live in this folder (document/, face/, sandbox government adapter); the service
// depends only on these ports and injection tokens.

/** Injection token of the DocumentEngine provider. */
export const DOCUMENT_ENGINE = Symbol('DOCUMENT_ENGINE');
/** Injection token of the FaceEngine provider. */
export const FACE_ENGINE = Symbol('FACE_ENGINE');

export type SubvalidationStatus = 'success' | 'failure' | 'skipped';

export interface SubvalidationOutcome {
  /** Wire name, e.g. document: mrz, manipulation, photo_of_photo, photocopy, data_consistency, government_database; face: similarity, passive_liveness, speech_match, face_search. */
  name: string;
  status: SubvalidationStatus;
  /** A reason code from the documented lists when status is failure (or skipped). */
  reason?: string;
  details?: Record<string, unknown>;
}

/** The data a document is compared with (from the validator account and the request). */
export interface ExpectedPersonData {
  firstName?: string;
  lastName?: string;
  documentNumber?: string;
  /** YYYY-MM-DD */
  dateOfBirth?: string;
  /** YYYY-MM-DD */
  expirationDate?: string;
}

export interface DocumentEngineInput {
  /** ISO 3166 alpha-2 or ALL (passport). */
  country: string;
  /** Spec wire value: national-id, foreign-id, driver-license, passport, identity-card, rut, ppt, invoice, picture-id, record, cnh. */
  documentType: string;
  /** Image bytes (JPEG or PNG) as uploaded. At least one side is present. */
  front?: Buffer;
  reverse?: Buffer;
  expected: ExpectedPersonData;
  /** The tenant's (or flow's) document_config switches. */
  checks: {
    manipulation: boolean;
    photoOfPhoto: boolean;
    photocopy: boolean;
    dataConsistency: boolean;
    governmentDatabase: boolean;
  };
}

export interface ExtractedDocumentData {
  documentNumber?: string;
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string;
  expirationDate?: string;
  nationality?: string;
  sex?: string;
  issuingCountry?: string;
  /** The MRZ lines as read. */
  mrz?: string[];
}

export interface DocumentEngineResult {
  status: 'success' | 'failure';
  /** When status is failure: one documented declined reason (e.g. mrz_not_found, invalid_mrz_check_digit, data_mismatch, invalid_document_number, document_expired, government_database_mismatch, manipulated_document, photo_of_photo, photocopy). */
  declinedReason?: string;
  extracted: ExtractedDocumentData;
  subvalidations: SubvalidationOutcome[];
}

export interface DocumentEngine {
  validate(input: DocumentEngineInput): Promise<DocumentEngineResult>;
}

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DetectedFace {
  box: FaceBox;
  /** Detection confidence, 0..1. */
  score: number;
  /** 128-dimensional descriptor. */
  descriptor: number[];
}

export interface FaceDescription {
  /** Every face found, largest first. */
  faces: DetectedFace[];
  /** Passive liveness of the largest face (method and limits documented by the engine). */
  liveness?: { score: number; passed: boolean; method: string };
}

export interface FaceEngine {
  /** Runs off the HTTP event loop (worker thread). */
  describe(image: Buffer): Promise<FaceDescription>;
  /** Similarity of two descriptors, 0 (different) .. 1 (same); compared with the validation's threshold. */
  similarity(a: number[], b: number[]): number;
}

/** Government identification-number registry (sandbox adapter here; real registries can't be reached). */
export interface GovernmentRegistry {
  lookup(query: {
    country: string;
    documentType: string;
    documentNumber: string;
  }): Promise<{ found: false } | { found: true; firstName?: string; lastName?: string; dateOfBirth?: string }>;
}
export const GOVERNMENT_REGISTRY = Symbol('GOVERNMENT_REGISTRY');
