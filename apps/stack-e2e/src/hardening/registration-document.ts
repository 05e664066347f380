/**
 * The OAuth registration endpoint (RFC 7591) described like an OpenAPI operation, for the fuzz suite:
 * the client metadata it takes and the errors it answers (`{error, error_description}`).
 */
const oauthError = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
};
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: oauthError } },
});

export const REGISTRATION_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'OAuth dynamic client registration', version: '1' },
  paths: {
    '/register': {
      post: {
        security: [],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  client_name: { type: 'string', maxLength: 200 },
                  redirect_uris: { type: 'array', items: { type: 'string' } },
                  grant_types: { type: 'array', items: { type: 'string' } },
                  response_types: { type: 'array', items: { type: 'string' } },
                  token_endpoint_auth_method: { type: 'string' },
                  scope: { type: 'string' },
                  client_uri: { type: 'string' },
                  logo_uri: { type: 'string' },
                  software_id: { type: 'string' },
                },
              },
            },
          },
        },
        responses: {
          '201': { description: 'Registered' },
          '400': errorResponse('invalid_client_metadata, invalid_redirect_uri or invalid_request'),
          '413': errorResponse('Body too large'),
          '415': errorResponse('Not JSON'),
          '429': errorResponse('rate_limited'),
        },
      },
    },
  },
};
