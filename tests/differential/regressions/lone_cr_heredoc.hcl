a = <<E
xy
E
