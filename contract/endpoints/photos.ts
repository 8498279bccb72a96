import { z } from 'zod';
import { errorBodySchema, idField, okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { photoOrderBodySchema, photoSchema } from '../profiles.ts';

export const photoUploadResponseSchema = z.object({ photo: photoSchema });

export const photoRefSchema = z.object({ photo: idField });

export const mainPhotoBodySchema = z.object({ photo: idField, main: z.literal(true) });

const errors = {
  403: errorBodySchema,
  404: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};

/** The photos calls: each route is registered from its declaration and the web client typed by it. */
export const photosEndpoints = {
  postPhotos: defineEndpoint({
    method: 'POST',
    path: '/api/photos.php',
    tags: ['photos'],
    summary:
      'Uploads a photo (multipart field "file"). 403 premium_required past 3 photos (free), 422 photo_limit past 25',
    consumes: ['multipart/form-data'],
    responses: { 201: photoUploadResponseSchema, ...errors },
  }),
  deletePhotos: defineEndpoint({
    method: 'DELETE',
    path: '/api/photos.php',
    tags: ['photos'],
    summary: 'Deletes one of the own photos',
    body: photoRefSchema,
    responses: { 200: okSchema, ...errors },
  }),
  putPhotos: defineEndpoint({
    method: 'PUT',
    path: '/api/photos.php',
    tags: ['photos'],
    summary: 'Makes one of the own photos the main photo',
    body: mainPhotoBodySchema,
    responses: { 200: okSchema, ...errors },
  }),
  putPhotoOrder: defineEndpoint({
    method: 'PUT',
    path: '/api/photo-order.php',
    tags: ['photos'],
    summary: 'Puts the own photos in a new order (all their ids); the first becomes the main photo',
    body: photoOrderBodySchema,
    responses: { 200: okSchema, ...errors },
  }),
};
