// @vitest-environment happy-dom
import { describeTestIsolation } from '../../test-support/frontend/test-isolation.js';

describeTestIsolation('happy-dom');
