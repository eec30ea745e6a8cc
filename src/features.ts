import type { AppContext } from './context.js';
import { registerAuth } from './auth/auth.routes.js';
import { registerAccounts } from './accounts/index.js';
import { registerVideos } from './videos/index.js';
import { registerJobs } from './jobs/index.js';
import { registerQuestions } from './questions/index.js';
import { registerQuiz } from './quiz/index.js';
import { registerSpeech } from './speech/index.js';
import { registerPages } from './pages/index.js';
import { registerSample } from './sample/index.js';
import { registerMeta } from './meta/meta.routes.js';
import { registerCodeQuiz } from './code-quiz/index.js';

/** Every feature of the service, registered in this order by createApp. */
export const FEATURES: ((ctx: AppContext) => void)[] = [
  registerMeta,
  registerAuth,
  registerAccounts,
  registerVideos,
  registerJobs,
  registerQuestions,
  registerQuiz,
  registerSpeech,
  registerSample,
  registerCodeQuiz,
  registerPages,
];
