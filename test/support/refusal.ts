import { AppError } from '../../src/domain/errors.ts';

/** What a caller is told when zarpay refuses: the error's code, HTTP status, message and details. */
export interface Refusal {
  code: string;
  httpStatus: number;
  message: string;
  details: { field: string; message: string }[] | undefined;
}

/** The refusal `run` must end in; anything else it throws, or its accepting, fails the test. */
export function refusalOf(run: () => unknown): Refusal {
  try {
    run();
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { code: e.code, httpStatus: e.httpStatus, message: e.message, details: e.details };
  }
  throw new Error('accepted');
}
