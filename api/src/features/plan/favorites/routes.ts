import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { presentFavorite } from './presenter.ts';
import { createFavoriteSchema } from './schema.ts';
import { FAVORITE_LIMIT, addFavorite, listFavorites, removeFavorite } from './service.ts';

export function favoriteRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: favorites');
  const path = '/v1/plan/me/favorites/';
  r.list({ path, person: true, summary: 'Your favorite tasks, boards and projects, newest first', item: 'PlanFavorite' }, async (call) => {
    const { count, views } = await listFavorites(call, call.page);
    return { count, results: views.map(presentFavorite) };
  });
  r.write(
    { method: 'post', path, person: true, summary: `Add a favorite (at most ${FAVORITE_LIMIT}: favorite_limit_reached); 200 when it already is one`, body: createFavoriteSchema, status: 201, response: 'PlanFavorite' },
    async (call) => {
      const added = await addFavorite(call, call.body);
      if (!added.created) call.status(200);
      return presentFavorite(added);
    },
  );
  r.write({ method: 'delete', path: `${path}:favorite/`, person: true, summary: 'Remove a favorite', status: 204 }, (call) => removeFavorite(call, call.params.favorite));
}
