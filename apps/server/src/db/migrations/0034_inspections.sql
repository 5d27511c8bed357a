-- An inspection keeps up to two photos (issue 28), as a third-party AED keeps its install_imgs.
ALTER TABLE device_inspections ADD COLUMN imgs jsonb NOT NULL DEFAULT '[]'
  CHECK (jsonb_typeof(imgs) = 'array' AND jsonb_array_length(imgs) <= 2);
UPDATE device_inspections SET imgs = jsonb_build_array(img) WHERE img IS NOT NULL AND img <> '';
ALTER TABLE device_inspections DROP COLUMN img;
