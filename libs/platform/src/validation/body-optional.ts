const BODY_OPTIONAL = Symbol('kyc:body-optional');

/**
 * Marks a body DTO whose request may leave the body out (it is then the empty body `{}`). A route with any
 * other body DTO refuses a request without a body, naming the body; the OpenAPI document says which.
 */
export const BodyOptional = (): ClassDecorator => (target) => {
  Reflect.defineMetadata(BODY_OPTIONAL, true, target);
};

export const isBodyOptional = (dto: object): boolean => Reflect.getMetadata(BODY_OPTIONAL, dto) === true;
