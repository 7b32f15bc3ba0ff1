// grpc-js answers a request it cannot decode with INTERNAL ("Error deserializing
// request"), which tells the caller the server failed. Bytes that are not a
// binring.v1 message are the caller's error: the backend decodes each request
// itself without ever throwing, and every handler refuses an Undecodable one
// with INVALID_ARGUMENT naming the call and what was wrong (HAZARDS.md 11). The keeper registers its service the same way.

import type * as grpc from "@grpc/grpc-js";
import { InvalidArgumentError } from "./errors.js";

export class Undecodable {
  constructor(readonly error: InvalidArgumentError) {}
}

/** The same service, its requests decoded into an Undecodable instead of failing the call. */
export function withTolerantDecoding<S extends grpc.ServiceDefinition>(service: S): S {
  const tolerant: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(service) as [
    string,
    grpc.MethodDefinition<unknown, unknown>,
  ][]) {
    tolerant[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer) => {
        try {
          return method.requestDeserialize(bytes);
        } catch (error) {
          return new Undecodable(
            new InvalidArgumentError(
              `${name}: the request (${bytes.length} bytes) is not a valid binring.v1 message: ${(error as Error).message}`,
            ),
          );
        }
      },
    };
  }
  return tolerant as S;
}
