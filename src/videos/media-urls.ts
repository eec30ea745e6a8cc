/** The URLs media is served at (routes in media.routes.ts); ids are validated before they get here. */
export function mediaUrls(videoId: string): { video: string; thumbnail: string; subtitles: string; frames: string } {
  const base = `/media/videos/${encodeURIComponent(videoId)}`;
  return { video: `${base}/video`, thumbnail: `${base}/thumbnail`, subtitles: `${base}/subtitles`, frames: `${base}/frames` };
}

export const frameUrl = (videoId: string, file: string): string => `${mediaUrls(videoId).frames}/${encodeURIComponent(file)}`;
