/** The JSON scalar (the account backend's token `payload`): any JSON value, passed through as is. */
import { GraphQLScalarType, valueFromASTUntyped } from 'graphql';

/** A JSON value in and out, unchanged. */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});
