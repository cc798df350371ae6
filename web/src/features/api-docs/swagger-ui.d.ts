/** The part of swagger-ui-dist's bundle the viewer uses (the package ships no types). */
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  interface SwaggerRequest {
    url: string;
    headers: Record<string, string>;
  }
  interface SwaggerUIOptions {
    domNode: HTMLElement;
    spec: object;
    deepLinking?: boolean;
    docExpansion?: 'list' | 'full' | 'none';
    defaultModelsExpandDepth?: number;
    supportedSubmitMethods?: string[];
    tryItOutEnabled?: boolean;
    displayRequestDuration?: boolean;
    filter?: boolean;
    requestInterceptor?: (request: SwaggerRequest) => SwaggerRequest;
  }
  interface SwaggerUISystem {
    specActions: { updateSpec(spec: string): void };
  }
  const SwaggerUIBundle: (options: SwaggerUIOptions) => SwaggerUISystem;
  export default SwaggerUIBundle;
}
