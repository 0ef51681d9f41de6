/**
 * Every error answer is an RFC 9457 problem (application/problem+json): type, title, status, detail, and for
 * validation failures `errors: [{path, message}]`. Never a stack trace or SQL text.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { describeIssues, type Issue } from '../../../shared/query/parse.ts';
import { ReadJobDropped } from '../workers/read-pool.ts';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  421: 'Misdirected Request',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const VALIDATION_TYPE = 'urn:waste-tracker:problem:validation';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errors?: { path: string; message: string }[];
}

export class HttpProblem extends Error {
  readonly status: number;
  readonly type: string;
  readonly errors: { path: string; message: string }[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    detail: string,
    options: {
      type?: string;
      errors?: { path: string; message: string }[];
      headers?: Record<string, string>;
    } = {},
  ) {
    super(detail);
    this.status = status;
    this.type = options.type ?? 'about:blank';
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }

  body(): ProblemBody {
    return {
      type: this.type,
      title: TITLES[this.status] ?? 'Error',
      status: this.status,
      detail: this.message,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

/**
 * A 400 naming every invalid member of the request, e.g. `body.pageInfo.pageSize`, in the words main and the
 * offline engine use for the same problem (shared/query/parse.ts).
 */
export function validationProblem(issues: readonly Issue[], where: 'body' | 'query'): HttpProblem {
  const errors = issues.map((issue) => ({
    path: issue.path === '' ? where : `${where}.${issue.path}`,
    message: issue.message,
  }));
  return new HttpProblem(400, describeIssues(errors, `request ${where}`), {
    type: VALIDATION_TYPE,
    errors,
  });
}

export function sendProblem(reply: FastifyReply, problem: HttpProblem): FastifyReply {
  return reply
    .code(problem.status)
    .headers(problem.headers)
    .type('application/problem+json')
    .send(problem.body());
}

/** Fastify's own errors (bad JSON, body too large, wrong media type) keep their status and safe message. */
const FRAMEWORK_DETAILS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'the request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'the request body is empty; send a JSON object',
  FST_ERR_CTP_BODY_TOO_LARGE: 'the request body is larger than 256 KB',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'send the request body as application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'the Content-Length header does not match the body',
};

export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpProblem, request, reply) => {
    if (error instanceof HttpProblem) return sendProblem(reply, error);
    if (error instanceof ReadJobDropped) {
      // The connection is gone and nothing is sent; 499 is the usual status for "client closed request".
      request.log.info({ path: request.url.split('?')[0] }, 'scan dropped: the client left');
      return reply.code(499).send();
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unexpected error');
      return sendProblem(reply, new HttpProblem(500, 'the server could not answer this request'));
    }
    const detail =
      FRAMEWORK_DETAILS[error.code] ??
      (error.code?.startsWith('FST_ERR_CTP') || error.code?.startsWith('FST_ERR_VALIDATION')
        ? error.message
        : 'the request could not be understood');
    return sendProblem(reply, new HttpProblem(status, detail));
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, new HttpProblem(404, `no endpoint ${request.method} ${request.url.split('?')[0]}`)),
  );
}
