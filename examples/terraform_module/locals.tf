locals {
  # Declared before what they use: evaluated in dependency order.
  instance_names = flatten([
    for name, spec in var.instances : [for i in range(spec.count) : "${local.prefix}-${name}-${i}"]
  ])
  prefix     = "${var.project}-${var.environment}"
  disk_gb    = { for name, spec in var.instances : name => spec.disk.gb * spec.count }
}

locals {
  common_tags = {
    Project     = var.project
    Environment = var.environment
    Instances   = length(local.instance_names)
  }
}
