import type { Request, Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { COMPANIONS } from '../config.js';
import { currentAuth, type Auth } from '../http/session.js';
import { videoIdSchema } from '../http/ids.js';
import { notFound } from '../http/errors.js';
import { assertVideoAccess, canSeeVideo } from '../videos/access.js';
import { COMPANION_PROFILES, PAGE_INSTRUCTIONS } from '../speech/companion-lines.js';

/**
 * The child experience pages: server-rendered shells, tablet-first. Every bit of data comes
 * from the JSON API in the page's script (public/kids/*.js), so the pages only decide who may
 * see them and where to send everyone else:
 *   /kids            parent-code login (a keypad)
 *   /kids/profiles   who is watching (needs a child session)
 *   /kids/companion  pick bunny / pig / alligator (needs a picked profile)
 *   /kids/videos     the video grid (needs a picked profile)
 *   /kids/play/:id   the player; experts and admins get it as a preview (?preview=1&companion=&mode=)
 */

/** What every kids page embeds for its scripts: the one list of companions and the voice-line clips. */
function kidsData(res: Response, auth: Auth) {
  return {
    companions: COMPANION_PROFILES,
    voice: (res.locals.voiceLines as Record<string, string> | undefined) ?? {},
    // POST /api/tts needs a session: a page without one uses the clips or the browser's voice
    tts: auth.role !== 'anonymous',
  };
}

const INSTRUCTIONS = PAGE_INSTRUCTIONS;

/** Query values are hints: anything unknown is ignored rather than refused (a child cannot fix a URL). */
const playQuerySchema = z.object({
  preview: z.enum(['1', 'true', '0', 'false']).optional().catch(undefined),
  companion: z.enum(COMPANIONS).optional().catch(undefined),
  mode: z.enum(['strict', 'flexible', 'passive']).optional().catch(undefined),
});

export function registerKidPages(ctx: AppContext): void {
  const { app, db } = ctx;

  app.get('/kids', (req, res) => {
    const auth = currentAuth(req);
    if (auth.role === 'child' && req.query.switch === undefined) {
      return res.redirect(303, auth.childId ? '/kids/videos' : '/kids/profiles');
    }
    render(res, 'kids/login', { instruction: INSTRUCTIONS.login });
  });

  app.get('/kids/profiles', (req, res) => {
    if (!childSession(req, res, false)) return;
    render(res, 'kids/profiles', { instruction: INSTRUCTIONS.profiles, holdText: INSTRUCTIONS.hold });
  });

  app.get('/kids/companion', (req, res) => {
    if (!childSession(req, res, true)) return;
    render(res, 'kids/companion', { instruction: INSTRUCTIONS.companion, companions: COMPANION_PROFILES });
  });

  app.get('/kids/videos', (req, res) => {
    if (!childSession(req, res, true)) return;
    render(res, 'kids/videos', { instruction: INSTRUCTIONS.videos, companions: COMPANION_PROFILES });
  });

  app.get('/kids/play/:video_id', async (req, res) => {
    const parsedId = videoIdSchema.safeParse(req.params.video_id);
    if (!parsedId.success) throw notFound('This video was not found.', 'video_not_found');
    const videoId = parsedId.data;
    const query = playQuerySchema.parse(req.query);
    const auth = currentAuth(req);

    let preview = false;
    if (auth.role === 'admin' || auth.role === 'expert') {
      // Staff see the player as a preview: answers are graded but nothing is saved.
      await assertVideoAccess(db, auth, videoId);
      preview = true;
    } else {
      if (!childSession(req, res, true)) return;
      if (!(await canSeeVideo(db, auth, videoId))) return res.redirect(303, '/kids/videos');
    }

    render(res, 'kids/play', {
      instruction: INSTRUCTIONS.play,
      companions: COMPANION_PROFILES,
      preview,
      // the preview's way back: to the staff page it was opened from
      back: preview ? (auth.role === 'admin' ? `/admin/videos/${videoId}` : `/expert/preview/${videoId}`) : '/kids/videos',
      data: {
        'video-id': videoId,
        preview: preview ? '1' : '0',
        companion: query.companion ?? '',
        // only a preview may choose the mode; a child always plays in the mode on their profile
        mode: preview ? (query.mode ?? '') : '',
      },
    });
  });
}

/**
 * Sends people without a child session to the login page, and (when a profile is needed)
 * child sessions without a picked profile to the profile picker. Returns false when it redirected.
 */
function childSession(req: Request, res: Response, needProfile: boolean): Extract<Auth, { role: 'child' }> | false {
  const auth = currentAuth(req);
  if (auth.role !== 'child') {
    res.redirect(303, '/kids');
    return false;
  }
  if (needProfile && !auth.childId) {
    res.redirect(303, '/kids/profiles');
    return false;
  }
  return auth;
}

function render(res: Response, view: string, locals: Record<string, unknown>): void {
  // Pages depend on who is logged in: never let a shared tablet's browser cache show them to the next family.
  res.setHeader('Cache-Control', 'no-store');
  const kids = kidsData(res, currentAuth(res.req));
  // embedded as JSON in a non-executed <script type="application/json">: "<" escaped so no text can close it
  res.render(view, { ...locals, kidsJson: JSON.stringify(kids).replace(/</g, '\\u003c') });
}
