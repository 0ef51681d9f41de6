/**
 * The renderer tests' shared setup. Testing Library's finders wait 1 s by default; AG Grid's first render
 * and a chain of answers through the pipeline take longer than that on a busy two-core machine, where a
 * finder that gives up early fails a test that is right. 5 s keeps a real hang failing within the test.
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5_000 });
