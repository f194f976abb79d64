// Public example descriptions, written here (never fetched): the OpenAPI Initiative's petstore examples
// (3.0 "petstore.yaml" and Swagger 2.0 "petstore-minimal"), trimmed, and small ones of our own for
// OpenAPI 3.1, circular schemas and the platform's credential headers.

/** OpenAPI 3.0, YAML: OAI's petstore.yaml (learn.openapis.org / OAI/learn.openapis.org examples). */
export const PETSTORE_30_YAML = `openapi: "3.0.0"
info:
  version: 1.0.0
  title: Swagger Petstore
  license:
    name: MIT
servers:
  - url: http://petstore.swagger.io/v1
paths:
  /pets:
    get:
      summary: List all pets
      operationId: listPets
      tags:
        - pets
      parameters:
        - name: limit
          in: query
          description: How many items to return at one time (max 100)
          required: false
          schema:
            type: integer
            maximum: 100
            format: int32
      responses:
        '200':
          description: A paged array of pets
          headers:
            x-next:
              description: A link to the next page of responses
              schema:
                type: string
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Pets"
        default:
          description: unexpected error
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
    post:
      summary: Create a pet
      operationId: createPets
      tags:
        - pets
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/Pet'
      responses:
        '201':
          description: Null response
        default:
          description: unexpected error
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
  /pets/{petId}:
    get:
      summary: Info for a specific pet
      operationId: showPetById
      tags:
        - pets
      parameters:
        - name: petId
          in: path
          required: true
          description: The id of the pet to retrieve
          schema:
            type: string
      responses:
        '200':
          description: Expected response to a valid request
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Pet"
        default:
          description: unexpected error
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
components:
  schemas:
    Pet:
      type: object
      required:
        - id
        - name
      properties:
        id:
          type: integer
          format: int64
        name:
          type: string
        tag:
          type: string
    Pets:
      type: array
      maxItems: 100
      items:
        $ref: "#/components/schemas/Pet"
    Error:
      type: object
      required:
        - code
        - message
      properties:
        code:
          type: integer
          format: int32
        message:
          type: string
`;

/** Swagger 2.0, JSON: OAI's petstore-minimal.json, with a body parameter added (petstore-expanded's addPet). */
export const PETSTORE_20_JSON = JSON.stringify({
  swagger: '2.0',
  info: { version: '1.0.0', title: 'Swagger Petstore', description: 'A sample API that uses a petstore as an example' },
  host: 'petstore.swagger.io',
  basePath: '/api',
  schemes: ['http'],
  consumes: ['application/json'],
  produces: ['application/json'],
  paths: {
    '/pets': {
      get: {
        description: 'Returns all pets from the system that the user has access to',
        produces: ['application/json'],
        responses: { '200': { description: 'A list of pets.', schema: { type: 'array', items: { $ref: '#/definitions/Pet' } } } },
      },
      post: {
        description: 'Creates a new pet in the store.',
        operationId: 'addPet',
        parameters: [{ name: 'pet', in: 'body', description: 'Pet to add to the store', required: true, schema: { $ref: '#/definitions/NewPet' } }],
        responses: { '200': { description: 'pet response', schema: { $ref: '#/definitions/Pet' } } },
      },
    },
    '/pets/{id}/photo': {
      post: {
        operationId: 'uploadPhoto',
        consumes: ['multipart/form-data'],
        parameters: [
          { name: 'id', in: 'path', required: true, type: 'integer', format: 'int64' },
          { name: 'file', in: 'formData', required: true, type: 'file' },
        ],
        responses: { '204': { description: 'uploaded' } },
      },
    },
  },
  definitions: {
    Pet: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' }, tag: { type: 'string' } } },
    NewPet: { type: 'object', required: ['name'], properties: { name: { type: 'string', example: 'Fido' }, tag: { type: 'string' } } },
  },
}, null, 2);

/** OpenAPI 3.1, JSON: type lists, const, prefixItems and dependentRequired (2020-12 only), a circular tree, a cookie and credential headers. */
export const TREE_31_JSON = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Folders', version: '2.1' },
  servers: [{ url: 'https://{region}.example.com/efat/api/{version}', variables: { region: { default: 'eu' }, version: { default: 'v1' } } }],
  paths: {
    '/cartelle/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' }, example: 7 }],
      get: {
        operationId: 'get folder',
        summary: 'A folder and its subfolders',
        tags: ['Cartelle'],
        parameters: [
          { name: 'Authorization-Key', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string' }, example: 'abc' },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: {
          '2XX': { description: 'the folder', content: { 'application/json': { schema: { $ref: '#/components/schemas/Folder' } } } },
        },
      },
      put: {
        operationId: 'putFolder',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Folder' }, examples: { one: { value: { name: 'Documenti', children: [] } } } } } },
        responses: { '204': { description: 'saved' } },
      },
    },
  },
  components: {
    schemas: {
      Folder: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string' },
          note: { type: ['string', 'null'] },
          kind: { const: 'folder' },
          size: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }] },
          children: { type: 'array', items: { $ref: '#/components/schemas/Folder' } },
        },
        dependentRequired: { note: ['kind'] },
        additionalProperties: false,
      },
    },
  },
});
