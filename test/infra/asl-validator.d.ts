// asl-validator 4 ships no type declarations; only what the infra tests call is declared.
declare module "asl-validator" {
  interface AslValidationError {
    "Error code": string;
    Message: string;
  }
  function validator(
    definition: unknown,
    options?: { checkPaths?: boolean; checkArn?: boolean },
  ): { isValid: boolean; errors: AslValidationError[]; errorsText: (separator?: string) => string };
  export = validator;
}
