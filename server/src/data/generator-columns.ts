/**
 * The columns of the generators table that a site record fills (RCRAInfo's handler file, or the demo's
 * made-up sites), in the order both writers bind them: the demo builder (data/demo/generators.ts) and the
 * import writers (import/writers/writer-sql.ts), each with the columns of its own around them.
 */
export const GENERATOR_SITE_COLUMNS = [
  'generator_name',
  'physical_address',
  'location_street_number',
  'location_street_1',
  'location_street_2',
  'location_city',
  'location_state',
  'location_zip',
  'mail_street_number',
  'mail_street_1',
  'mail_street_2',
  'mail_city',
  'mail_state',
  'mail_zip',
  'contact_name',
  'contact_phone_number',
  'contact_email',
  'registration_status',
  'state_handler_id',
  'federal_generator_status_universe',
  'federal_generator_status_universe_code',
  'land_type',
  'short_term_generator_activity',
  'mixed_waste_generator',
  'transporter_activity',
  'transfer_facility_activity',
  'importer_activity',
  'location_latitude',
  'location_longitude',
  'public_notes',
] as const;
